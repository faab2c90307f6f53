# Packaging for capsule_ae, driven by settings.ini (nbdev 2 layout). Deliberately free of pkg_resources,
# which setuptools 82 removed.
from configparser import ConfigParser
import shlex
import setuptools

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

expected = ('version description keywords author author_email license min_python lib_name user '
            'status audience language').split()
missing = [k for k in expected if k not in cfg]
assert not missing, f'settings.ini is missing: {missing}'

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.9 3.10 3.11 3.12 3.13'.split()
lic = licenses[cfg['license'].lower()]
min_python = cfg['min_python']

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
console_scripts = cfg.get('console_scripts', '').split()

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    license=lic[0],
    classifiers=[
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
        'License :: ' + lic[1],
    ] + ['Programming Language :: Python :: ' + v for v in py_versions[py_versions.index(min_python):]],
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    install_requires=requirements,
    extras_require={'dev': dev_requirements},
    python_requires='>=' + min_python,
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={'console_scripts': console_scripts, 'nbdev': [f'{cfg["lib_name"]}={cfg["lib_name"]}._modidx:d']},
    author=cfg['author'],
    author_email=cfg['author_email'],
    description=cfg['description'],
    keywords=cfg['keywords'],
)
